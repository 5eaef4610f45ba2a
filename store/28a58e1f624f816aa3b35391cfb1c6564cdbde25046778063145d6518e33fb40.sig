alias entropic-bound-2026-12-07-session 8AwSkOBb4bi//I06+0YcIC7AYaiGlk8LYBW1wY7EisxmwimBfto41O+800iOrv9Q0LdyxLG2B+hxQTdeL3QuAw==
