import dgram from "node:dgram";
import dnsPacket from "dns-packet";

/** Addresses to answer, "nxdomain", or "drop" (never reply, to exercise timeouts). */
export type DnsAnswer = string[] | "nxdomain" | "drop";
/** queryNumber counts from 1, per name and type. */
export type DnsAnswerFn = (name: string, type: "A" | "AAAA", queryNumber: number) => DnsAnswer;

export interface DnsServer {
  /** "127.0.0.1:port", as Resolver#setServers takes it. */
  address: string;
  queries: { name: string; type: string }[];
  count(name: string, type?: string): number;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

/** A UDP DNS server on 127.0.0.1 (port 0) answering A/AAAA from `answer`; other types get no data. */
export async function startDnsServer(answer: DnsAnswerFn): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const queries: DnsServer["queries"] = [];
  const count = (name: string, type?: string) =>
    queries.filter((q) => q.name === name.toLowerCase() && (type === undefined || q.type === type)).length;

  socket.on("message", (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push({ name, type: question.type });
    const type = question.type;
    const result: DnsAnswer = type === "A" || type === "AAAA" ? answer(name, type, count(name, type)) : [];
    if (result === "drop") return;
    const reply = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (result === "nxdomain" ? NXDOMAIN : 0),
      questions: query.questions,
      answers: result === "nxdomain" ? [] : result.map((data) => ({ type: type as "A" | "AAAA", name: question.name, ttl: 0, data })),
    });
    socket.send(reply, peer.port, peer.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    queries,
    count,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
