entry entropic-bound-paper-2026-12 xxaoM52ieW9sg7Yni/BxcNYw93/jgl5fE1STzF21WJem9j6Lldh37uJTh8EFGSDzWgk/eQw45V+7AVCPQxYCAQ==
