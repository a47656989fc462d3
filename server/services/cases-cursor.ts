import { z } from 'zod';

export const uuidShape = z.uuid();
export const isUuid = (value: string): boolean => uuidShape.safeParse(value).success;
