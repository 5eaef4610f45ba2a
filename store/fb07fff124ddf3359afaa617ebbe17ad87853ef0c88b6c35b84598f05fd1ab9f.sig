entry entropic-bound-paper-2026-12 FyS0xWn4/igs2sqg+2p5qHmjruZJjNqPbCDvhZaEXonzrKxuI/r9aSmVZZNI8p1u0r/ZvnK1EpbfF8HdzSYqAg==
