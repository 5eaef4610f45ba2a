alias entropic-bound-2026-12-07-session dFN1eQ0BWeCidJb/+z05ppYC9w4jrNAQb0oAQEjTmsUcNtMTcO+M/38SRXXifggwXRx6btzxroPjYcS3NmN6Dg==
