entry entropic-bound-paper-2026-12 fluI3DG/0D/YlEHfHIXmpEyOrpr/yvX9yVAaT3g0EKQ2e+uUHiDdPeWxbs0dA/M++ZgM0HZfNwhycxtO/AOACg==
