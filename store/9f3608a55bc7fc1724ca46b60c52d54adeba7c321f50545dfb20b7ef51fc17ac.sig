alias entropic-bound-paper-2026-12 s6vSdGvHi8QNwMGHnMTTfB2ZE50e+n/vda9guE5iPOk3AOcINi9F/AK7BNqmjvnD/iN8IfT+xNUNJCJl/Yr6Cw==
