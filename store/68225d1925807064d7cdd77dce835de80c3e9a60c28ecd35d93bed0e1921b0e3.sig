alias entropic-bound-2026-12-07-session 418HOtHOhBfrAUyeFwsfDNgqlb3nldb04w8CGWfB/6F0hq+8/aC5wR5IsMgg+2GrCUbCz1foETLtaqbRfe11Bg==
