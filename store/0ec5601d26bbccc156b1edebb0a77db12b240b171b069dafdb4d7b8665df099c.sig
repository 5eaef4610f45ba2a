entry entropic-bound-paper-2026-12 22rWwa1+qhPv3z7t83nEXCZZAqpr1llJwR+bDSjx4Tb3ztIK/GDuRM7TZPeR1K6B6xruRgVK+TVIrFcKutsbBg==
