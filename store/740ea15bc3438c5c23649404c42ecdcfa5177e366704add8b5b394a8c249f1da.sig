alias entropic-bound-2026-12-07-session JEu8B8HroQbL7o6JTcjLff0K++KJQzo3Su0BVuV6naDUnZCkUGv0rd86RjiR3cL+1U/+m4QfwTcZMMd6qXeJBw==
