//go:build !race

package testkit

// Race reports whether the tests run under -race, which runs them several
// times slower: the longest sweeps shrink then.
const Race = false
