alias entropic-bound-2026-12-07-session D/3/kTqUd75lb1GiMGKJVi62BZWLnMGlO5wIBM2I0fr2Zu4WXr3zPRLTIU7B/uMZVwdm/1eu+Ec9zX6UbHDhCA==
