alias entropic-bound-2026-12-07-session ekHWQK8z2Bhuw0a4sE1a+/Uc0dPxBugtbwm8zAaD8yICaE9XR692Pymc83DlEN4V76W/yy6oeDP2bydjf+twCQ==
