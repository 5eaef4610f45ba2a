alias entropic-bound-2026-12-07-session +Jr/m++DIW9ILPtVoS/8hJaeL3bJ1oyOwaVViN77WaRycpFKHmTec4kZGBkRLRvUcZWNNpuVsYgbCxZhQSqwDA==
