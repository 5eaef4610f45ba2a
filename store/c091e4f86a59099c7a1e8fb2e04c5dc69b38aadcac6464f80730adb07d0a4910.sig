alias entropic-bound-2026-12-07-session VOdRf/mzUY3vhfrbTnJUf+0AdXXVb9m60rV6K1AIFEnmKIRTufd78LaDJF/sJi/xTtp+MtDgJXjbyRneltK3BA==
