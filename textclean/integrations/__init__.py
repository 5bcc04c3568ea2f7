"""Where textclean meets agents: message lists, hooks and proxies, each built on the public gate."""
