# expect: PP016
stop, branch +67108864
