alias entropic-bound-paper-2026-12 u4KOS9XLXaF3r4Eorvtem/cyWIOwAVkq+eMWs0AdEbaYVHFbufRMdOhEc1ziWKfpf1RWJhJ//8/0ZK5DKT4GBg==
