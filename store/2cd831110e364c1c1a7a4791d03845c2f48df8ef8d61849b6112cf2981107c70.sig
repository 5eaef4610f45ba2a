alias entropic-bound-paper-2026-12 +zqGuTfQg+CsW5X7G7HLOgl65GGDv8gQhh4iobiC35wLPsfI7X9ZHq4Jtu//0N2H2izQRP5Kd47vlifOdF2zCA==
