//go:build !race

package broadcast

// raceBuild reports a -race build (see reduce_race_test.go).
const raceBuild = false
