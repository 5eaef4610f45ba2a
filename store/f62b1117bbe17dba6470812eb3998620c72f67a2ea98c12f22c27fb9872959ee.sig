entry entropic-bound-paper-2026-12 UCdzf33e2uSlZM9OoXMN1Q+F/UMTeWP7r7aqcsKtl0EVic7rxErnuC1+729hWFgR1AsGSaP64Vq/wA8OmC/ACg==
