alias entropic-bound-paper-2026-12 IM+iJY6uUka6jc+mPE7m1ZUU8tVl+iEJpJdNYbEIWrQDpDeCwRtWKc4LWuBK1JK2QQ4fgRvRk15cp0zH7p/xCQ==
