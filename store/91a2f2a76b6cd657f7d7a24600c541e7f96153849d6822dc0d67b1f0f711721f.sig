entry entropic-bound-paper-2026-12 OnRj60OCYfL4CE/iY71RIlMpbulMKzN9Q3sVr7Tb1jprtblD4J0Qz2Sk5ap/gBML7QFLEvASc7sU/F+Z9SMBAA==
