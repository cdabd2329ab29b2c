//go:build long

package data

// With the build tag long, TestLoadCSVMemory loads one million rows (≈ 265 MB of text).
func init() { largeRows = 1_000_000 }
