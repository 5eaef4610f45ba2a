alias entropic-bound-paper-2026-12 b0r1gcs3e2WDWZ8IB4SQ2hQibyVuPj3D3vedaxaFOTtQ1fBRtLp1ei/+R8uWgdt/cTcK9LSqsWIhNkcUcY/FDw==
