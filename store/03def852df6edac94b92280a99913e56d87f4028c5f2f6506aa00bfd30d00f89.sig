alias entropic-bound-paper-2026-12 VAf0MFGKLyWZp6AHH9OCNKQuY9O0BMKJ/fJlLzGF8fuV8vAQ61xNvrml/6lvvbWbUbiT5+rH+J6xiMmNvCToBw==
