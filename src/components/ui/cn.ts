// Class-name joiner: clsx for conditions, tailwind-merge so a caller's class wins over a primitive's default.
import { type ClassValue, clsx } from 'clsx';
import { twMerge } from 'tailwind-merge';

export function cn(...inputs: ClassValue[]): string {
  return twMerge(clsx(inputs));
}
