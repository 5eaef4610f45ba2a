alias entropic-bound-2026-12-07-session O2allgt+hBQpU2rraNpJu2/n4uNHq+I2vJ1gA9ZMhHt0vDt0nywViRE6qitNq2qT+ARr7eaw6Egvfudi3ZCcAA==
