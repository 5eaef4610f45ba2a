entry entropic-bound-paper-2026-12 OP5vHlM2BHu8soq0MDx4F/eYhUG1FuZBLtz/N2CEfc5w+R7s3Acx9IOM1UUwcW+3J+Prq9cIA4DOd3YIDiLVDw==
