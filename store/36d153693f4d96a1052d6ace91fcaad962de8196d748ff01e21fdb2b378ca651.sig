entry entropic-bound-paper-2026-12 +Bb+M4mF8kNdqAdc9ox4DpH0ABo9Wkx9Q1l8ioYz/a3IsDN2l91H/3HRgD5LjIQHu1irVElNylS9zXWu2v6IBQ==
