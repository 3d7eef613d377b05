import { IsOptional, IsString } from 'class-validator';
import { defineMessage } from '../messaging/define-message';

export class PingRequest {
  @IsOptional() @IsString() echo?: string;
}

export interface PingResponse {
  service: string;
  instance: string;
  /** false while the service cannot reach its database. */
  ready: boolean;
  echo?: string;
}

/** `<service>.v1.health.ping`: the gateway's /ready asks each service; the benchmark uses it as the echo path. */
export const pingMessage = (service: string) => defineMessage<PingRequest, PingResponse>(`${service}.v1.health.ping`, PingRequest);

export interface EchoResponse {
  service: string;
  echo?: string;
}

/** `<service>.v1.health.echo`: answers at once, touching no database (the benchmark's NATS round trip). */
export const echoMessage = (service: string) => defineMessage<PingRequest, EchoResponse>(`${service}.v1.health.echo`, PingRequest);
