// expect: NV2A017
// A0X makes every constant read relative; nv2avsh silently does.
mul r0, c[A0+5], c5
