alias entropic-bound-paper-2026-12 gZWObvmCLDOlHwRABt6He1NpZk3AOY6i0CpAbL+E7cDZCdkIkbk5xZ/QRS+S2xKkbVJoSYAon6JEbNg6NC+IAA==
