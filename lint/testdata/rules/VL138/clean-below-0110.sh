# lint-version: 0.10.2
# Before 0.11.0 the config classes were not read: nothing is checked.
vllm serve m --compilation-config '{"pass_config":{"enable_noop":true},"bogus":1}'
