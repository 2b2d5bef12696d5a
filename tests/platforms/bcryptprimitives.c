/* Test-only stand-in for Windows' bcryptprimitives.dll, which Wine 8 lacks and Rust's standard
 * library imports (ProcessPrng, Windows 10+). scripts/check-platforms builds it next to the test
 * programs it runs under Wine. Never shipped: real Windows has the DLL. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG len); /* RtlGenRandom, advapi32 */

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len) {
    while (len > 0) {
        ULONG n = len > 0x40000000 ? 0x40000000 : (ULONG)len;
        if (!SystemFunction036(data, n)) return FALSE;
        data += n;
        len -= n;
    }
    return TRUE;
}
