alias entropic-bound-migration-2026-12-rules rBDcQGPFFpucxhf3qx+mrl1whlniSmT6fydsN+vLLnF1O+6r7VoM3oIWsQ+uQpBmMQjYzNDyg3iVzup66uVkCg==
