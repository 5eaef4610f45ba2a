alias entropic-bound-migration-2026-12-rules cLFSPgsuA5suLEyYMiUWgFiU1ptSILHF1wYDfObacEKm2vtPj/RfeCtCpnXo93W53a+9I1K10+pc9V/tY0QFCw==
