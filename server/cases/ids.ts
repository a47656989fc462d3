import { z } from 'zod';

const uuidShape = z.uuid();
/** Case and message ids reach SQL only when they are UUIDs; anything else is simply not found. */
export const isUuid = (value: string): boolean => uuidShape.safeParse(value).success;
