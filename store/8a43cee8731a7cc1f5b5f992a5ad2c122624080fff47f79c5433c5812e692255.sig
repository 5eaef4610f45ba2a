entry entropic-bound-paper-2026-12 4kgN79CXhMBjBftY3h+rNNb+IS82PNjSLqwEYw40iCsnQNfIVneaKbTuvvC25Q2s8nXj+vE+AwEbDM0+CwF5Bw==
