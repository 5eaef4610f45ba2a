entry entropic-bound-paper-2026-12 VsfwS+CxG7D2Zg3ZSkVVFvAGs//eBnV13HIKQ8H9OQ+rOIT6Ok7lQOZeuy7tJ8vieBeurNcjYdjO2nd93apCBw==
