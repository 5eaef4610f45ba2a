alias entropic-bound-paper-2026-12 m8tRKV6DojoMvQHKyo9Gxc/9zD61ZmlXPC++VAE8uevyf0QoMFVAN+V+o2IFuNCIqQajQMiSLw4R2s3DKKJnAQ==
