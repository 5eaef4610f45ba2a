alias entropic-bound-paper-2026-12 ctu+mSOaJ8qTPgvj03SkVTMDxTKDQrl7Pd0J4xlUYpI6p56hMy0KvQG1t+4IFcCLie/g0GNDLdk6H2svV8+TCw==
