alias entropic-bound-paper-2026-12 +cMeudKOenxSAgmZJ02lxFK/1S8vLgtNzO/+aMapm19lmOtkpl+cOfUtTF79VJhmN1bpwkSJBKuV69A0kZG9DQ==
