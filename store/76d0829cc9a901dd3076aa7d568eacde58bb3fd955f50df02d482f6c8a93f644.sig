realisation entropic-bound-2026-12-07-session swkifZVFd6a1tFWdU+qT45yrm/hh7dq92L3X8l+/U7KU1VoxBITSSxtml1UYtBvy0NfhbZ/+gkE1a31aQsE7Dw==
