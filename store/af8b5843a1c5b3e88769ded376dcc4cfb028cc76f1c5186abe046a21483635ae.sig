alias entropic-bound-2026-12-07-session MGCnrWlMW5CKP3sL0Lu7DtPkFpDXluQI8L4/fPeWOuWUoMEMFOB0oMD//v+aDIXznNY75YhPPHus0sjGIfZ+Bg==
