package mip

import "github.com/mrbound/mrbound/solve/native"

// init routes the "native" backend's MIPs to this package.
func init() { native.SolveMIP = Solve }
