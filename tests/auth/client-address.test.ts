import { describe, expect, it } from "vitest";
import { addressKey, clientAddress, normalizeAddress, trustedProxiesFrom } from "@/lib/auth/client-address";

const proxies = trustedProxiesFrom("10.0.0.0/8, 192.168.1.5, fd00::/8");

describe("the client's address", () => {
  it("is the socket's peer when no proxies are trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress({ forwardedFor: "203.0.113.9", peerAddress: "198.51.100.7", trustedProxies: undefined })).toBe("198.51.100.7");
    expect(clientAddress({ forwardedFor: "203.0.113.9", peerAddress: "::ffff:127.0.0.1", trustedProxies: undefined })).toBe("127.0.0.1");
  });

  it("is the peer when the peer is not a trusted proxy", () => {
    expect(clientAddress({ forwardedFor: "203.0.113.9", peerAddress: "198.51.100.7", trustedProxies: proxies })).toBe("198.51.100.7");
  });

  it("walks X-Forwarded-For from the right past trusted proxies when the peer is one", () => {
    const through = (forwardedFor: string, peerAddress = "10.1.2.3") => clientAddress({ forwardedFor, peerAddress, trustedProxies: proxies });
    expect(through("203.0.113.9")).toBe("203.0.113.9");
    // The client wrote the leftmost entries itself: only what our proxies appended counts.
    expect(through("1.1.1.1, 203.0.113.9, 192.168.1.5")).toBe("203.0.113.9");
    expect(through("1.1.1.1,203.0.113.9,10.9.9.9", "::ffff:192.168.1.5")).toBe("203.0.113.9");
    expect(through("2001:db8::1, fd00::2", "fd00::1")).toBe("2001:db8::1");
    // Garbage where a proxy's entry should be: the nearest address we know.
    expect(through("203.0.113.9, not-an-ip, 10.0.0.7")).toBe("10.0.0.7");
    // Nothing but proxies (a health check from inside): the furthest of them.
    expect(through("10.0.0.8, 10.0.0.7")).toBe("10.0.0.8");
    expect(through("")).toBe("10.1.2.3");
  });

  it("is unknown without a peer, X-Forwarded-For or not", () => {
    expect(clientAddress({ forwardedFor: "203.0.113.9", peerAddress: undefined, trustedProxies: proxies })).toBeUndefined();
    expect(clientAddress({ forwardedFor: "203.0.113.9", peerAddress: undefined, trustedProxies: undefined })).toBeUndefined();
  });

  it("refuses a trusted-proxy list it cannot read, naming the variable", () => {
    expect(trustedProxiesFrom(undefined)).toBeUndefined();
    expect(trustedProxiesFrom(" , ")).toBeUndefined();
    for (const bad of ["proxy.internal", "10.0.0.0/33", "10.0.0.0/8/1", "10.0.0.0/x", "::1/129"]) {
      expect(() => trustedProxiesFrom(`10.0.0.1, ${bad}`)).toThrow(`TOOLSHED_TRUSTED_PROXIES: "${bad}" is not an IP address or a CIDR range`);
    }
  });

  it("spells addresses one way and counts IPv6 by its /64", () => {
    expect(normalizeAddress(" ::FFFF:10.0.0.1 ")).toBe("10.0.0.1");
    expect(normalizeAddress("2001:DB8::1")).toBe("2001:db8::1");
    expect(normalizeAddress("nope")).toBeUndefined();
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("2001:db8::ffff:1.2.3.4")).toBe("2001:db8:0:0::/64");
  });
});
