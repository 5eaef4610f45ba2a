alias entropic-bound-2026-12-07-session EHO3/wHQa596T00ureOSbx7SjDtJ/tyg8vvu/FcFi1PQc7Yxfn5jYOIMB02QXT/w7LJC6yZWGjwFDZ70nmBDBg==
