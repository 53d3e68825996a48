// Package floatsgonum tests github.com/simdkit/elem/floats against the
// package it replaces, gonum.org/v1/gonum/floats v0.17.0, and benchmarks
// the two side by side. It is its own package in the benchmark module so
// that the library does not require gonum.
//
// The tests run every exported function of both on the same random and
// adversarial inputs (NaNs of every kind, infinities, signed zeros,
// subnormals, values near overflow, lengths 0 to 70 and longer, unaligned
// subslices) and require the elementwise results bit for bit, the panics
// value for value, the searches, sorts and comparisons identical, and the
// reductions within the error bound of two summation orders; a test
// compares the exported API of the two packages, name by name and
// signature by signature.
//
//	go test -run '^$' -bench . -count 6 ./floatsgonum
//
// gives the table of docs/floats.md.
package floatsgonum
