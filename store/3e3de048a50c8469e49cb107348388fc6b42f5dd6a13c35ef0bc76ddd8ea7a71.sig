alias entropic-bound-paper-2026-12 NTkfMSMxw+xwjtjqi53L1j2yx6jU5nJc16mxW0LTpQf5bymmotS+ZLnsAtRe+Glk/7eWr5Uu+QyW36NIs1MrBg==
