alias entropic-bound-2026-12-07-session x78dqopwsiFie8ASlssg6ncjh+UcvjmPFdafIS72Z+VZFcHp3ez9+IOgErYzN9SlDxuPQrqI/AKVpmWNZ1hGAg==
