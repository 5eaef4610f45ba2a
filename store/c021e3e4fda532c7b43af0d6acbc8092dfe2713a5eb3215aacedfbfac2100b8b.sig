entry entropic-bound-paper-2026-12 /UPZ0HWORg/3k9T0zqvQR+9zo67bX9iYeXeetLk0mcK91jiN1ycQorVOVTWVze4/KR6kLZneZcYZ6p+9nMyvBg==
