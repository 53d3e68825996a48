//go:build race

package broadcast

// raceBuild reports a -race build, where the kernels report the ranges
// they access to the race detector, which takes their addresses: stack
// accumulators then move to the heap.
const raceBuild = true
