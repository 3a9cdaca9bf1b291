// measured_host.h — the profile's host figures replaced by this machine's
// (`--measure-host`): the CPU side of the model (the C loop's time, the
// first touches that hide CUDA's start-up) then fits the machine the user
// advises on, whichever host the profile was measured on. The GPU side
// stays the profile's.
#pragma once

#include "advisor/host_cpu.h"
#include "advisor/host_record.h"
#include "advisor/platform.h"

namespace recipe::advisor {

// Sets the platform's host figures from `h` (the best of this machine's
// recent readings, advisor/host_record.h) and marks it host_measured.
void use_measured_host(const RememberedHost& h, Platform* platform);

}  // namespace recipe::advisor
