alias entropic-bound-2026-12-07-session Ry72mvxgiUTNEnOPlx/D2FBIcJnMkfsdO88YxHnMA1fqiEeaRjuvP2+9U5/eGjfK+x5tis+z4xbzRMOZk5OlBg==
