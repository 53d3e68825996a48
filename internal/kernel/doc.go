// Package kernel is elem's trusted kernel entry: the implementations (the
// generic Go kernels and the generated assembly), the choice among them, and
// the calls that run one m x n block with no checks at all. Package elem
// validates its public calls and package broadcast its plans, and both then
// call here; nothing else may, because a wrong length or stride here reads
// and writes outside the slices.
package kernel
