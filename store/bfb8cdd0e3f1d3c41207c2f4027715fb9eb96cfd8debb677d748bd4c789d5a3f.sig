entry entropic-bound-paper-2026-12 L9Af29mL+QmgY/0RAZUiSfklxBYUXWtCnt+ZnfZVt+5iYIvI3a8y++0t7QYOQ97sWrK3o5ZUKSY/uTMrPpu8DQ==
